package view

// Task colours: a pure function of the task's name, so a task keeps its
// colour across reruns, A/B runs and shared links. The hue comes from an
// FNV-1a hash of the name spread by the golden ratio; saturation and
// lightness are fixed so every colour reads on the dark lanes.

import "math"

// RGB is a colour.
type RGB struct{ R, G, B uint8 }

// Hex renders the colour as #rrggbb (for CSS).
func (c RGB) Hex() string {
	const digits = "0123456789abcdef"
	b := []byte{'#', 0, 0, 0, 0, 0, 0}
	for i, v := range []uint8{c.R, c.G, c.B} {
		b[1+2*i], b[2+2*i] = digits[v>>4], digits[v&15]
	}
	return string(b)
}

// TaskColor is the colour of the task called name.
func TaskColor(name string) RGB {
	h := uint32(2166136261)
	for i := 0; i < len(name); i++ {
		h ^= uint32(name[i])
		h *= 16777619
	}
	// Finish the hash (murmur3 fmix32) so that names differing in one
	// character land far apart on the colour wheel.
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	hue := float64(h%3600) / 3600
	return hsl(hue, 0.65, 0.58)
}

// GroupColor is the colour of task group name: its first task's (the
// swatch the workload table shows).
func GroupColor(name string) RGB { return TaskColor(name + "-0") }

func hsl(h, s, l float64) RGB {
	q := l + s - l*s
	if l < 0.5 {
		q = l * (1 + s)
	}
	p := 2*l - q
	conv := func(t float64) uint8 {
		t = math.Mod(t+1, 1)
		var v float64
		switch {
		case t < 1.0/6:
			v = p + (q-p)*6*t
		case t < 0.5:
			v = q
		case t < 2.0/3:
			v = p + (q-p)*(2.0/3-t)*6
		default:
			v = p
		}
		return uint8(math.Round(v * 255))
	}
	return RGB{conv(h + 1.0/3), conv(h), conv(h - 1.0/3)}
}

// Heat maps a utilisation in [0,1] to a colour from dark blue to hot orange.
func Heat(u float64) RGB {
	u = math.Max(0, math.Min(1, u))
	return RGB{uint8(30 + 225*u), uint8(40 + 120*u*(1-u)*2 + 20*u), uint8(70 + 40*(1-u))}
}
