package main

// Decoding the worker's large JSON in pieces. A run's first batch carries
// the task list (JSON []sched.TaskInfo) and its "done" message the metrics
// report (JSON metrics.Report); on a 256-CPU machine with 1024 tasks one
// json.Unmarshal of either is a long task of the main thread
// (docs/playground-perf.md). The pump decodes them
// before it takes the event-env lock (they are the message's own data),
// one array element at a time, and yields to the browser (bridge.Yield)
// whenever a piece has taken decodeMs; what it builds is what
// json.Unmarshal builds (decode_pieces_test.go).

import (
	"encoding/json"
	"fmt"
	"strings"

	"schedplay/core/metrics"
	"schedplay/core/sched"
)

const decodeMs = 12 // longest stretch of decoding per browser task

// pieces paces a decode: after each element, tick yields once the
// current piece has run for budgetMs (now: a clock in ms).
type pieces struct {
	budgetMs float64
	now      func() float64
	yield    func()
	t0       float64
	Yields   int
}

func (p *pieces) tick() {
	if p.now()-p.t0 > p.budgetMs {
		p.yield()
		p.Yields++
		p.t0 = p.now()
	}
}

// decodeArray decodes a JSON array (or null) from dec one element at a
// time; [] gives an empty non-nil slice, as json.Unmarshal does.
func decodeArray[T any](dec *json.Decoder, p *pieces) ([]T, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok == nil {
		return nil, nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("want an array, got %v", tok)
	}
	out := []T{}
	for dec.More() {
		var v T
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
		p.tick()
	}
	_, err = dec.Token() // ']'
	return out, err
}

// decodeTaskInfos decodes a batch's task list.
func decodeTaskInfos(js string, p *pieces) ([]sched.TaskInfo, error) {
	p.t0 = p.now()
	dec := json.NewDecoder(strings.NewReader(js))
	infos, err := decodeArray[sched.TaskInfo](dec, p)
	if err != nil {
		return nil, fmt.Errorf("worker task list: %v", err)
	}
	return infos, nil
}

// decodeReport decodes a metrics report: its tasks and CPUs element by
// element, the other fields as json.Unmarshal does.
func decodeReport(js string, p *pieces) (*metrics.Report, error) {
	p.t0 = p.now()
	dec := json.NewDecoder(strings.NewReader(js))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("worker report: want an object (%v)", err)
	}
	rep := &metrics.Report{}
	rest := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("worker report: %v", err)
		}
		key, _ := tok.(string)
		switch key {
		case "tasks":
			rep.Tasks, err = decodeArray[metrics.Task](dec, p)
		case "cpus":
			rep.CPUs, err = decodeArray[metrics.CPU](dec, p)
		default:
			var raw json.RawMessage
			err = dec.Decode(&raw)
			rest[key] = raw
		}
		if err != nil {
			return nil, fmt.Errorf("worker report %s: %v", key, err)
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, fmt.Errorf("worker report: %v", err)
	}
	head, err := json.Marshal(rest)
	if err == nil {
		err = json.Unmarshal(head, rep) // the scalar fields; tasks and cpus are not in head
	}
	if err != nil {
		return nil, fmt.Errorf("worker report: %v", err)
	}
	return rep, nil
}
