package main

import (
	"slices"
	"testing"
)

// TestObjects: kernel compiles are picked from a dry-run log, once each,
// host compiles and scripts/ left out.
func TestObjects(t *testing.T) {
	log := []byte("set -e;  echo '  gcc -Wp,-MMD,init/.main.o.d -nostdinc -O2 -c -o init/main.o init/main.c'; gcc -Wp,-MMD,init/.main.o.d -nostdinc -O2 -c -o init/main.o init/main.c ; printf '%s' 'cmd_init/main.o := gcc -nostdinc -c -o init/main.o init/main.c'\n" +
		"gcc -nostdinc -D__ASSEMBLY__ -c -o arch/x86/entry/entry_64.o arch/x86/entry/entry_64.S\n" +
		"gcc -Wp,-MMD -O2 -c -o scripts/mod/empty.o scripts/mod/empty.c\n" +
		"gcc -nostdinc -c -o scripts/mod/devicetable-offsets.o scripts/mod/devicetable-offsets.c\n" +
		"cc -O2 -c -o tools/objtool/check.o check.c\n")
	got := objects(log)
	want := []string{"arch/x86/entry/entry_64.o arch/x86/entry/entry_64.S", "init/main.o init/main.c"}
	if !slices.Equal(got, want) {
		t.Errorf("objects = %q, want %q", got, want)
	}
}

func TestQuantilesAndOctiles(t *testing.T) {
	xs := make([]float64, 16)
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	if q := quantile(xs, 0.5); q != 8.5 {
		t.Errorf("median %v, want 8.5", q)
	}
	if q := quantile(xs, 1); q != 16 {
		t.Errorf("max %v", q)
	}
	om := octileMeans(xs)
	for c, m := range om {
		if want := float64(2*c) + 1.5; m != want {
			t.Errorf("octile %d mean %v, want %v", c, m, want)
		}
	}
}
