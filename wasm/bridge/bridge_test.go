package bridge

import "testing"

func TestHashAndURLs(t *testing.T) {
	if got := HashParam("#x=1&s=abc_-", "s"); got != "abc_-" {
		t.Fatalf("HashParam = %q", got)
	}
	if got := HashParam("", "s"); got != "" {
		t.Fatalf("empty fragment: %q", got)
	}
	if got := ShareURL("http://h:1/index.html#s=old", "new"); got != "http://h:1/index.html#s=new" {
		t.Fatalf("ShareURL = %q", got)
	}
	if got := EmbedURL("http://h:1/sub/index.html#s=old", "p"); got != "http://h:1/sub/embed.html#s=p" {
		t.Fatalf("EmbedURL = %q", got)
	}
}
