//go:build js && wasm

package bridge

// SetValueGen sets the value of form element id to s unless the element
// already holds generation gen of it (kept on the element), and reports
// whether it set it. A large text (a scenario in the JSON editor) goes to
// the element directly: through Vugu's render it would be one
// instruction, and an instruction longer than Vugu's 16 KiB buffer stops
// the page's Go program. The generation leaves the user's typing alone
// (the page's text changed only when gen did) and a re-created element
// (a tab switched back) gets the text again. No element: nothing to do.
func SetValueGen(id string, gen int, s string) (bool, error) {
	el, err := byID(id)
	if err != nil {
		return false, nil
	}
	if g, err := el.Get(valueGenProp); err == nil {
		if n, err := g.Int(); err == nil && !g.IsUndefined() && n == gen {
			return false, nil
		}
	}
	if err := el.Set("value", s); err != nil {
		return false, err
	}
	return true, el.Set(valueGenProp, gen)
}

const valueGenProp = "__schedplayValueGen"
