package caselist

import (
	"errors"
	"slices"
	"testing"
)

func TestSelect(t *testing.T) {
	all := []string{"a", "b", "c"}
	id := func(s string) string { return s }
	if got, err := Select(all, id, ""); err != nil || !slices.Equal(got, all) {
		t.Errorf(`"": %v %v, want all`, got, err)
	}
	if got, err := Select(all, id, "c, a"); err != nil || !slices.Equal(got, []string{"c", "a"}) {
		t.Errorf(`"c, a": %v %v, want [c a] in the list's order`, got, err)
	}
	_, err := Select(all, id, "a,nope")
	var u *UnknownError
	if !errors.As(err, &u) || u.ID != "nope" || !slices.Equal(u.Known, all) || err.Error() != `unknown case "nope" (known: a, b, c)` {
		t.Errorf("unknown ID: %v", err)
	}
}
