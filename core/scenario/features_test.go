package scenario

import (
	"strings"
	"testing"

	"schedplay/core/sched"
)

// TestFeatureOnOtherProfile: a feature the kernel profile does not read is
// refused, on or off, with the key and the profiles it applies to, as
// sched_feat_write() refuses a name features.h does not list; where the
// profile reads it, it is accepted.
func TestFeatureOnOtherProfile(t *testing.T) {
	build := func(kernel, feat, val string) error {
		_, err := Decode([]byte(doc(`"kernel":{"version":"`+kernel+`"},"features":{"`+feat+`":"`+val+`"},`, hog)))
		return err // Decode builds the scenario once to validate it
	}
	for _, val := range []string{"on", "off"} {
		err := build("v5.8", "HYBRID_CLUSTER_SERIES", val)
		if err == nil {
			t.Fatalf("HYBRID_CLUSTER_SERIES=%s on v5.8 accepted", val)
		}
		e := asError(t, "hybrid on v5.8", err)
		if e.Path != "features.HYBRID_CLUSTER_SERIES" || !strings.Contains(e.Msg, "v6.6, v6.12, v6.18") || !strings.Contains(e.Msg, "v5.8") {
			t.Errorf("error %q: want the key, the profile and v6.6, v6.12, v6.18", err)
		}
		if err := build("v6.6", "HYBRID_CLUSTER_SERIES", val); err != nil {
			t.Errorf("HYBRID_CLUSTER_SERIES=%s on v6.6: %v", val, err)
		}
	}
	for _, p := range sched.Profiles() {
		for _, f := range sched.Features() {
			err := build(p.Name, f.String(), "on")
			if f.AppliesTo(p.Version()) != (err == nil) {
				t.Errorf("%s on %s: AppliesTo %v, Build error %v", f, p.Name, f.AppliesTo(p.Version()), err)
			}
		}
	}
	// The same through -set, applied before the kernel changes: Build
	// decides on the final profile.
	sc := mustPreset(t, "seed/cluster-hybrid")
	for _, kv := range []string{"features.HYBRID_CLUSTER_SERIES=off", "kernel.version=v3.11"} {
		if err := sc.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := sc.Build(sched.DefaultLimits()); err == nil || !strings.Contains(err.Error(), "features.HYBRID_CLUSTER_SERIES: kernel v3.11 has no HYBRID_CLUSTER_SERIES") {
		t.Errorf("cluster-hybrid on v3.11 without the series: %v", err)
	}
}
