package experiment

// The experiment flags' and fragments' errors quote user input bounded
// (core/quote): a 40 KB -sweep, -metric, -shard or sweep= fragment key
// gives an error of a few hundred bytes (part files: partfile's test).

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestLongInputErrors(t *testing.T) {
	big := strings.Repeat("k", 40<<10)
	_, sweepErr := ParseSweepAxis(big)
	_, sweepValErr := ParseSweepAxis("seed=" + big + ",,1")
	_, metricErr := Resolve([]string{big}, []string{"a"}, 2)
	_, groupErr := Resolve([]string{"wakeup_latency_avg@" + big}, []string{"a"}, 2)
	_, shardErr := ParseShard(big+"/2", nil)
	_, autoErr := ParseShard("auto/2", func(string) (string, bool) { return big, true })
	_, specErr := SweepSpec{Axes: []string{big}}.Check()
	frag := base64.RawURLEncoding.EncodeToString([]byte(`{"v":1,"` + big + `":1}`))
	_, fragErr := DecodeSweepFragment(frag)
	for what, err := range map[string]error{
		"-sweep key": sweepErr, "-sweep value": sweepValErr, "-metric": metricErr, "-metric @group": groupErr,
		"-shard": shardErr, "-shard auto": autoErr, "sweep spec": specErr, "sweep= fragment": fragErr,
	} {
		if err == nil {
			t.Errorf("%s: no error", what)
			continue
		}
		if n := len(err.Error()); n > 1024 {
			t.Errorf("%s: error of %d bytes, want at most 1024: %.200s...", what, n, err)
		}
	}
}
