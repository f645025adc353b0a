package rtapp

import "bytes"

// LooksLikeRTApp spots rt-app's layout: a top-level object whose "tasks"
// is an object (the scenario format has an array) or that has a "global"
// section, and no "version". Comments (which rt-app allows) are skipped by
// Parse; a document it cannot parse is rt-app only if it starts with a
// comment, which JSON scenarios cannot. The CLI and the playground both use
// this rule.
func LooksLikeRTApp(data []byte) bool {
	root, err := Parse(data)
	if err != nil {
		t := bytes.TrimSpace(data)
		return bytes.HasPrefix(t, []byte("//")) || bytes.HasPrefix(t, []byte("/*"))
	}
	if root.Kind != Object || root.Get("version") != nil {
		return false
	}
	if root.Get("global") != nil {
		return true
	}
	tasks := root.Get("tasks")
	return tasks != nil && tasks.Val != nil && tasks.Val.Kind == Object
}
