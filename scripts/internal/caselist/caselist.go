// Package caselist picks the cases a measurement command runs from a
// -cases flag: a comma-separated list of case IDs, "" for all. It is
// shared by scripts/realkernel and scripts/replaytrace, each with its own
// case type.
package caselist

import (
	"slices"
	"strconv"
	"strings"
)

// UnknownError is a listed ID that names no case; Known are the IDs there
// are, in their order.
type UnknownError struct {
	ID    string
	Known []string
}

func (e *UnknownError) Error() string {
	return "unknown case " + strconv.Quote(e.ID) + " (known: " + strings.Join(e.Known, ", ") + ")"
}

// Select returns the cases of all whose IDs (id of each) the
// comma-separated list names, in the list's order (IDs trimmed of
// spaces; "" = all of them), or an *UnknownError for the first ID that
// names none.
func Select[T any](all []T, id func(T) string, list string) ([]T, error) {
	if list == "" {
		return all, nil
	}
	var out []T
	for _, name := range strings.Split(list, ",") {
		i := slices.IndexFunc(all, func(c T) bool { return id(c) == strings.TrimSpace(name) })
		if i < 0 {
			var ids []string
			for _, c := range all {
				ids = append(ids, id(c))
			}
			return nil, &UnknownError{ID: name, Known: ids}
		}
		out = append(out, all[i])
	}
	return out, nil
}
