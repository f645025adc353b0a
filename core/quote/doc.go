// Package quote bounds the user input an error message quotes. A name, a
// key, a path or a value can be as long as the document it came from (a
// 40 KB cgroup path, a -set key, a trace line): an error echoes at most
// [Max] bytes of each, cut at a character, with an ellipsis and the
// whole length, so that a message stays readable in a terminal and fits
// the playground's error line. Every decoder of the core (scenarios, -set
// keys, share links, rt-app files, kernel traces) and the CLI quote
// through it.
//
// Non-goals: no shell or JSON quoting (scenario.ShellQuote, encoding/json),
// no cutting of the fixed text of a message.
package quote
