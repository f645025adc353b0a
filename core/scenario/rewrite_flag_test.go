package scenario

// The package's one golden-file flag, shared by its golden tests (the
// -rewrite name every package uses; `make golden` passes it).

import "flag"

// rewrite regenerates testdata/workloads.golden and appends the share URLs
// of new presets and hand-written scenarios to testdata/urls.txt. The URL
// corpus is append-only: -rewrite never changes or removes a line of it.
var rewrite = flag.Bool("rewrite", false, "rewrite testdata/workloads.golden and append new share URLs to testdata/urls.txt (append-only: existing URL lines are never changed or removed)")
