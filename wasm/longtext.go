package main

// Long user strings on the page. Vugu v0.4.0 sends a render to the page
// as instructions in one 16 KiB buffer (domrender/renderer-js.go): an
// attribute, a property or a text node longer than that does not fit and
// stops the page's Go program ("requested instruction does not fit in the
// buffer"), and an innerHTML (vg-content) is cut into chunks at byte
// offsets, which breaks a multi-byte character at a cut (each chunk is
// decoded alone). A user's string can be as long as the scenario (a
// description, an experiment's thread text or notes, a trace's file name,
// an error quoting a key), so:
//   - the page shows such a string bounded (shortText for a name or a
//     title, proseText for an explanation: the start and an ellipsis)
//     with more of it one hover away (a title attribute, bounded too) and
//     the whole text one click away in the JSON tab;
//   - texts that are the whole scenario (the share link, the JSON editor)
//     go to their fields outside Vugu (fillShare, fillEditor);
//   - every build passes guardBuild before it is rendered (renderguard.go):
//     innerHTML in ASCII (character references), so no cut breaks a
//     character, and any attribute, property or text still too long is
//     cut, so no string can stop the page.

import (
	"strconv"
	"unicode/utf8"
)

const (
	shownMax = 240     // characters of a long name or title shown in place
	proseMax = 4096    // characters of a long prose text (an explanation, a note)
	hoverMax = 4 << 10 // bytes of a name in its hover title
)

// shortText is a name or title s, or its first shownMax characters and
// an ellipsis.
func shortText(s string) string { return clipRunes(s, shownMax) }

// proseText is a prose text s, or its first proseMax characters and an
// ellipsis.
func proseText(s string) string { return clipRunes(s, proseMax) }

// proseHover is the hover title of a prose text cut by proseText: its
// size and where the whole text is ("" when shown whole).
func proseHover(s string) string {
	if proseText(s) == s {
		return ""
	}
	return strconv.Itoa(len(s)) + " bytes in all; the JSON tab holds the whole text"
}

// clipRunes is s, or its first n characters and an ellipsis.
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	k := 0
	for i := range s {
		if k == n {
			return s[:i] + "…"
		}
		k++
	}
	return s
}

// hoverText is the title of a string shown by shortText: s whole when it
// fits a title, else its first hoverMax bytes (cut at a character), its
// size, and where the whole text is.
func hoverText(s string) string {
	if len(s) <= hoverMax {
		return s
	}
	return cutBytes(s, hoverMax) + "… (" + strconv.Itoa(len(s)) + " bytes in all; the JSON tab holds the whole text)"
}

// cutBytes is the longest prefix of s of at most n bytes that ends at a
// character boundary.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// hoverIfLong is the hover title of a string shown by shortText, "" when
// it is shown whole.
func hoverIfLong(s string) string {
	if shortText(s) == s {
		return ""
	}
	return hoverText(s)
}
