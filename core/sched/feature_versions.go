package sched

// Which kernel profiles a feature toggle means something on.
//
// Mirrors sched_feat_write() (kernel/sched/debug.c): writing a name that the
// running kernel's features.h does not list to
// /sys/kernel/debug/sched/features fails with -EINVAL, whether it is NAME or
// NO_NAME. A scenario that sets features.GENTLE_FAIR_SLEEPERS on v6.18, or
// features.HYBRID_CLUSTER_SERIES on v5.8, is refused the same way
// (scenario.Build), with the profiles the toggle applies to, instead of
// being accepted and silently not read.
//
// The ranges are docs/kernel-rules.md §3 (features.h per version) for the
// sched_feats, and the profiles whose modelled mechanism reads the toggle
// for the patches of the experiments. SIMPLIFIED: a patch that is not a
// sched_feat in any kernel (the RFCs of S2, the 2013 patches of S4) or that
// became one later (SM_IDLE, v6.12) applies to every profile the model
// reads it on, as if backported; the profile's own default stays the
// kernel's.

import (
	"errors"
	"strings"
)

// featureRange: the profiles with from <= v < to (to 0: no end, v the
// profile's version, versionIn in rules.go) read
// the feature; note says what the others do instead.
type featureRange struct {
	from, to int
	note     string
}

const (
	cfsOnly   = "removed with CFS by \"sched/fair: Commit to EEVDF\" (v6.6)"
	eevdfOnly = "an EEVDF sched_feat (v6.6+); legacy CFS has no lag or deadlines"
)

var featureRanges = [numFeatures]featureRange{
	GentleFairSleepers:       {0, 606, cfsOnly},
	StartDebit:               {0, 606, cfsOnly},
	LastBuddy:                {0, 606, cfsOnly},
	SchedIdleNoSleeperCredit: {0, 606, "a patch to legacy CFS place_entity(); EEVDF gives no sleeper credit"},
	PlaceLag:                 {606, 0, eevdfOnly},
	PlaceDeadlineInitial:     {606, 0, eevdfOnly},
	RunToParity:              {606, 0, eevdfOnly},
	PlaceRelDeadline:         {612, 0, "added in the v6.12 cycle (features.h)"},
	PreemptShort:             {612, 0, "added in the v6.12 cycle (features.h)"},
	DelayDequeue:             {612, 0, "added in v6.12 with delayed dequeue (features.h)"},
	DelayZero:                {612, 0, "added in the v6.12 cycle (features.h)"},
	PickBuddy:                {618, 0, "added after v6.12 (79104becf42b); v6.6 and v6.12 pick the next buddy under NEXT_BUDDY"},
	SISUtil:                  {600, 0, "added in v5.19; the older profiles scan without the utilisation budget"},
	CfsSliceExpiry:           {0, 600, "removed by de53fd7aedb1 (v5.4): the v6.x profiles keep local runtime across periods"},
	UtilEst:                  {417, 0, "added in v4.17 (util_est, 7f65ea42eb00 [M commit]); v3.11 has no util_est"},
	UtilEstFastup:            {505, 608, "added in v5.5 (\"util_est: fast ramp-up EWMA on utilization increases\" [R patch v2]) and removed in v6.8 (\"sched/fair: Remove SCHED_FEAT(UTIL_EST_FASTUP, true)\", the ramp-up made permanent)"},
	NIRandom:                 {618, 0, "added by 33cf66d88306 (v6.19-rc1, in 6.18.y from 6.18.5); the older profiles balance at every newly idle entry the gates let through"},
	HybridClusterSeries:      {606, 0, "merged for v6.6; the older profiles balance with the series' rules (series.go, SIMPLIFIED)"},
}

// AppliesTo reports whether a profile of kernel version v (e.g. 612)
// reads the feature.
func (f Feature) AppliesTo(v int) bool {
	if f >= numFeatures {
		return false
	}
	r := featureRanges[f]
	return versionIn(v, r.from, r.to)
}

// Profiles lists the profiles that read the feature, oldest first.
func (f Feature) Profiles() []string {
	var out []string
	for _, p := range profiles() {
		if f.AppliesTo(p.version) {
			out = append(out, p.Name)
		}
	}
	return out
}

// AllProfiles reports whether every profile reads the feature.
func (f Feature) AllProfiles() bool { return len(f.Profiles()) == len(profiles()) }

// CheckFeature returns an error when the profile does not read f, naming
// the profiles that do; the caller prefixes the JSON path.
func (p *Profile) CheckFeature(f Feature) error {
	if f.AppliesTo(p.version) {
		return nil
	}
	msg := "kernel " + p.Name + " has no " + f.String() + ": it applies to " + strings.Join(f.Profiles(), ", ")
	if n := featureRanges[f].note; n != "" {
		msg += " (" + n + ")"
	}
	return errors.New(msg)
}
