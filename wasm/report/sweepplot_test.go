package report

import (
	"math"
	"testing"
)

func TestNumericAxis(t *testing.T) {
	if got := numericAxis([]string{"1", "2.5", "10ms"}); len(got) != 3 || got[1] != 2.5 || got[2] != 10e6 {
		t.Fatalf("numericAxis = %v", got)
	}
	if got := numericAxis([]string{"v5.8", "v6.6"}); got != nil {
		t.Fatalf("profiles are not numbers: %v", got)
	}
	if math.IsNaN(round1(1.26)) || round1(1.26) != 1.3 {
		t.Fatal("round1")
	}
}
