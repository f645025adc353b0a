package ftraceimport

// The context columns of a trace line: everything before the event's
// fields. The kernel prints them in trace_print_context() and
// trace_print_lat_fmt() (kernel/trace/trace_output.c); trace-cmd report
// prints the same columns with its own widths:
//
//	          <idle>-0       [002] d..2. 42478.177771: sched_wakeup: comm=...
//	           bash-1234     [002] 42478.177771: sched_switch: ...      (irq-info off)
//	           bash-1234  (   1234) [002] d..2. 42478.177771: ...      (record-tgid on)
//	           bash-1234  [002]  5461.123456: sched_switch: bash:1234 [120] S ==> ...
//
// The task column is "comm-pid" where comm may hold spaces and dashes, so
// the pid is the digits after the last dash before the CPU column.

import "strings"

// prefix is the parsed context of one line.
type prefix struct {
	comm  string // task column comm ("<idle>", "<...>" when unknown)
	pid   int
	cpu   int
	ts    int64  // absolute timestamp, ns
	event string // event name, e.g. "sched_switch"
	body  string // the event's fields
	irq   int8   // the flags column's hardirq/softirq/NMI mark: 1 set, 0 clear, -1 no column
}

// parsePrefix splits a trace line into its context and body. ok is false
// when the line is not a trace entry (a header, a trace-cmd banner, a
// "CPU 2 is empty" note, free text): such lines are skipped.
func parsePrefix(line string) (p prefix, ok bool) {
	for start := 0; start < len(line); {
		i := strings.IndexByte(line[start:], '[')
		if i < 0 {
			return p, false
		}
		i += start
		start = i + 1
		cpu, end, isCPU := parseCPUColumn(line, i)
		if !isCPU {
			continue
		}
		comm, pid, isTask := parseTaskColumn(line[:i])
		if !isTask {
			continue
		}
		p.comm, p.pid, p.cpu = comm, pid, cpu
		return parseAfterCPU(p, line[end:])
	}
	return p, false
}

// parseCPUColumn reads "[ddd]" at line[i] followed by a space; end is the
// index after the closing bracket.
func parseCPUColumn(line string, i int) (cpu, end int, ok bool) {
	j := i + 1
	for j < len(line) && line[j] == ' ' {
		j++
	}
	n, k := 0, j
	for k < len(line) && line[k] >= '0' && line[k] <= '9' && k-j < 6 {
		n = n*10 + int(line[k]-'0')
		k++
	}
	if k == j || k >= len(line) || line[k] != ']' || k+1 >= len(line) || line[k+1] != ' ' {
		return 0, 0, false
	}
	return n, k + 1, true
}

// parseTaskColumn reads "comm-pid" with an optional "(tgid)" column after
// it.
func parseTaskColumn(s string) (comm string, pid int, ok bool) {
	s = strings.TrimRight(s, " ")
	if strings.HasSuffix(s, ")") {
		k := strings.LastIndexByte(s, '(')
		if k < 0 {
			return "", 0, false
		}
		s = strings.TrimRight(s[:k], " ")
	}
	d := strings.LastIndexByte(s, '-')
	if d < 0 || d == len(s)-1 {
		return "", 0, false
	}
	pid, ok = parseUint(s[d+1:])
	if !ok {
		return "", 0, false
	}
	return strings.TrimLeft(s[:d], " "), pid, true
}

// parseAfterCPU reads the optional flags column, the timestamp and the
// event name.
func parseAfterCPU(p prefix, rest string) (prefix, bool) {
	tok, rest := nextToken(rest)
	p.irq = -1
	if !strings.HasSuffix(tok, ":") { // irq flags such as "d..2." or "dNh1"
		if len(tok) > 8 {
			return p, false
		}
		p.irq = irqMark(tok)
		tok, rest = nextToken(rest)
	}
	if !strings.HasSuffix(tok, ":") {
		return p, false
	}
	ts, ok := parseTimestamp(tok[:len(tok)-1])
	if !ok {
		return p, false
	}
	p.ts = ts
	rest = strings.TrimLeft(rest, " ")
	c := strings.IndexByte(rest, ':')
	if c <= 0 {
		return p, false
	}
	p.event = rest[:c]
	for i := 0; i < len(p.event); i++ {
		if ch := p.event[i]; !(ch == '_' || ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch >= 'A' && ch <= 'Z') {
			return p, false
		}
	}
	p.body = strings.TrimSpace(rest[c+1:])
	return p, true
}

// nextToken returns the next space-separated token of s and what follows.
func nextToken(s string) (tok, rest string) {
	s = strings.TrimLeft(s, " ")
	i := strings.IndexByte(s, ' ')
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// maxSeconds bounds timestamps so that nanoseconds fit an int64 with room
// to spare.
const maxSeconds = 1_000_000_000

// parseTimestamp reads "SECONDS.FRACTION" (up to nanosecond digits) into
// nanoseconds. A timestamp without a fraction (trace_clock counter or
// x86-tsc) is taken as nanoseconds.
func parseTimestamp(s string) (int64, bool) {
	dot := strings.IndexByte(s, '.')
	if dot < 0 {
		v, ok := parseUint(s)
		return int64(v), ok
	}
	sec, ok := parseUint(s[:dot])
	if !ok || sec > maxSeconds {
		return 0, false
	}
	frac := s[dot+1:]
	if len(frac) == 0 || len(frac) > 9 {
		return 0, false
	}
	f, ok := parseUint(frac)
	if !ok {
		return 0, false
	}
	for range 9 - len(frac) {
		f *= 10
	}
	return int64(sec)*1_000_000_000 + int64(f), true
}

// parseUint reads a non-empty decimal of at most 18 digits.
func parseUint(s string) (int, bool) {
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseInt reads an optionally negative decimal.
func parseInt(s string) (int, bool) {
	if strings.HasPrefix(s, "-") {
		v, ok := parseUint(s[1:])
		return -v, ok
	}
	return parseUint(s)
}

// irqMark reads the third character of the flags column, which
// trace_print_lat_fmt() sets to 'h' (hardirq), 's' (softirq), 'H' (hardirq
// inside softirq) or 'z'/'Z' (NMI): 1 when the event ran in interrupt
// context, so the task column is not the waker.
func irqMark(flags string) int8 {
	if len(flags) < 3 {
		return -1
	}
	switch flags[2] {
	case 'h', 's', 'H', 'z', 'Z':
		return 1
	}
	return 0
}
