package scenario

// Generator "multimedia": periodic multimedia pipelines after rt-app's
// examples (Debian's rt-app, /usr/share/doc/rt-app/examples/mp3-short.json
// and video-short.json, which model Android audio and video playback).
//
// profile mp3 (mp3-short.json, complete): AudioTick's 6 ms timer wakes
// AudioOut every fifth tick (30 ms); AudioOut runs 275 us, wakes
// AudioTrack, runs 4725 us; AudioTrack runs 300 us and wakes the decoder;
// the decoder runs 1 ms, hands a buffer to OMXCall and waits for it (a
// condition variable handshake), OMXCall runs 300 us and answers, the
// decoder runs 150 us more.
//
// profile video (video-short.json, condensed): a 60 Hz vsync thread
// (hwc_eventmon, 115 us) wakes DispSync (75 us), which wakes EventThread
// (65 us), which wakes surfaceflinger (1.5 ms composition); a 30 Hz waker
// wakes NuPlayerRenderer (580 us), which wakes the video decoder NPDecoder
// (500 us, a 680 us sleep, 2 ms) and the audio decoder (2.4 ms, a 430 us
// sleep, 45 us).
//
// rt-app's suspend/resume become wait/signal here, with a pending signal
// kept when the wakee is not yet waiting (a condition variable guarded by
// a predicate, as the real code uses), so the chain never loses a frame;
// rt-app's priority -19 etc. with SCHED_OTHER is nice. Timers are rt-app's
// default relative mode. scale multiplies every run (a slower CPU or a
// heavier stream).
//
// SIMPLIFIED (video): video-short.json's second DispSync and EventThread
// phases, the NuPlayerDriver lock handshakes and the Codec looper threads
// are left out; the runs kept are those of the example.

var genMultimedia = &generator{
	kind: "multimedia",
	models: "periodic multimedia pipelines after rt-app's examples: mp3 (a 6 ms audio tick driving AudioOut, AudioTrack, the decoder and an OMX handshake) " +
		"or video (60 Hz vsync to surfaceflinger and a 30 Hz decoder chain); scale multiplies the CPU bursts",
	params: []Param{
		{Name: "profile", Type: PEnum, Default: "mp3", Enum: []string{"mp3", "video"}, Help: "which rt-app example"},
		{Name: "scale", Type: PInt, Default: "100", Min: 1, Max: 1000, Help: "percent applied to every run (100 = the example's)"},
	},
	expand: expandMultimedia,
}

// mmTask is one thread of a pipeline: its name part, nice and program
// (runs in microseconds before scaling).
type mmTask struct {
	part string
	nice int
	prog []Step
}

func expandMultimedia(x *expander) error {
	pct := x.int("scale")
	run := func(usec Duration) Step { return stRun(scaled(usec*us, pct)) }
	res := x.group
	var tasks []mmTask
	switch x.str("profile") {
	case "mp3":
		tick := stTimer("tick", 6*ms, "relative")
		tasks = []mmTask{
			{"AudioTick", -19, []Step{stSignal(res("AudioOut"), false), tick, stLoop(4, tick)}},
			{"AudioOut", -19, []Step{stWait(res("AudioOut")), run(275), stSignal(res("AudioTrack"), false), run(4725)}},
			{"AudioTrack", -16, []Step{stWait(res("AudioTrack")), run(300), stSignal(res("decoder"), false)}},
			{"decoder", -2, []Step{stWait(res("decoder")), run(1000), stSignal(res("queue"), false), stWait(res("reply")), run(150)}},
			{"OMXCall", -2, []Step{stWait(res("queue")), run(300), stSignal(res("reply"), false)}},
		}
	case "video":
		tasks = []mmTask{
			{"hwc_eventmon", -19, []Step{stSignal(res("DispSync"), false), run(115), stTimer("vsync", 16667*us, "relative")}},
			{"DispSync", -7, []Step{stWait(res("DispSync")), run(35), stSignal(res("EventThread"), false), run(40)}},
			{"EventThread", -8, []Step{stWait(res("EventThread")), run(30), stSignal(res("surfaceflinger"), false), run(35)}},
			{"surfaceflinger", -7, []Step{stWait(res("surfaceflinger")), run(1500)}},
			{"waker", -19, []Step{stSignal(res("NuPlayerRenderer"), false), stTimer("frame", 33333*us, "relative")}},
			{"NuPlayerRenderer", -15, []Step{stWait(res("NuPlayerRenderer")), run(580), stSignal(res("NPDecoder"), false), stSignal(res("aac"), false)}},
			{"NPDecoder", -15, []Step{stWait(res("NPDecoder")), run(500), stSleep(680 * us), run(2000)}},
			{"aac", -1, []Step{stWait(res("aac")), run(2400), stSleep(430 * us), run(45)}},
		}
	}
	for _, t := range tasks {
		x.add(Task{Name: x.group(t.part), Instances: 1, Nice: t.nice, Loop: -1, Program: t.prog})
	}
	return nil
}
