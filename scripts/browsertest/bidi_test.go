//go:build browser

package browsertest

// A minimal WebDriver BiDi client (https://w3c.github.io/webdriver-bidi/),
// enough to drive Firefox, which speaks BiDi natively on
// --remote-debugging-port (no geckodriver). Design:
//
//   - one WebSocket (gobwas/ws) to ws://HOST:PORT/session and one reader
//     goroutine that decodes every message: a message with an "id" answers
//     the command with that id (handed to the waiting caller on its own
//     channel); a message with "type":"event" goes to the onEvent callback
//     (called on the reader goroutine: it must not block);
//   - no hangs: every command waits at most until its context's deadline
//     (call adds bidiCallTimeout when the context has none), and when the
//     reader stops (browser died, socket closed) every pending and later
//     command fails at once with the reader's error;
//   - values cross as JSON text: evaluate wraps the expression in
//     JSON.stringify, so the client needs no decoder for BiDi's
//     RemoteValue serialization;
//   - frames are written whole (built in a buffer, one Write under a
//     mutex), so the reader's pong/close replies never interleave with a
//     command.
//
// Only what the tests use is here: session.*, browsingContext.*, and
// script.evaluate with awaitPromise.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// bidiCallTimeout bounds a command whose context has no deadline.
const bidiCallTimeout = 30 * time.Second

type bidi struct {
	conn    net.Conn
	r       io.Reader // conn, after what the handshake already buffered
	w       *lockedWriter
	onEvent func(method string, params json.RawMessage)

	mu      sync.Mutex
	nextID  int
	pending map[int]chan bidiMsg
	dead    chan struct{} // closed when the reader stops; err says why
	err     error
}

// bidiMsg is any message from the remote end: a command's success or error
// answer, or an event.
type bidiMsg struct {
	ID      *int            `json:"id"`
	Type    string          `json:"type"` // "success", "error" or "event"
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   string          `json:"error"`
	Message string          `json:"message"`
}

// lockedWriter serialises whole writes to the socket, each bounded by a
// write deadline.
type lockedWriter struct {
	mu   sync.Mutex
	conn net.Conn
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return l.conn.Write(p)
}

// dialBiDi opens the WebSocket and starts the reader.
func dialBiDi(ctx context.Context, url string, onEvent func(string, json.RawMessage)) (*bidi, error) {
	conn, br, _, err := ws.Dialer{Timeout: 10 * time.Second}.Dial(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("bidi: connecting to %s: %w", url, err)
	}
	b := &bidi{conn: conn, r: conn, w: &lockedWriter{conn: conn}, onEvent: onEvent,
		pending: map[int]chan bidiMsg{}, dead: make(chan struct{})}
	if br != nil { // bytes the server sent right after the handshake
		b.r = io.MultiReader(br, conn)
	}
	go b.read()
	return b, nil
}

// read dispatches messages until the socket fails, then fails every
// pending command.
func (b *bidi) read() {
	rw := struct {
		io.Reader
		io.Writer
	}{b.r, b.w}
	var err error
	for {
		var data []byte
		data, _, err = wsutil.ReadServerData(rw)
		if err != nil {
			break
		}
		var m bidiMsg
		if err = json.Unmarshal(data, &m); err != nil {
			err = fmt.Errorf("bidi: undecodable message %.200q: %w", data, err)
			break
		}
		if m.Type == "event" {
			if b.onEvent != nil {
				b.onEvent(m.Method, m.Params)
			}
			continue
		}
		if m.ID == nil {
			continue // an error without an id (unparseable command): the caller times out with context
		}
		b.mu.Lock()
		ch := b.pending[*m.ID]
		delete(b.pending, *m.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- m // buffered: never blocks
		}
	}
	b.mu.Lock()
	b.err = fmt.Errorf("bidi: connection lost: %w", err)
	b.pending = nil
	b.mu.Unlock()
	close(b.dead)
}

// call sends a command and decodes its result into out (when not nil).
func (b *bidi) call(ctx context.Context, method string, params any, out any) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, bidiCallTimeout)
		defer cancel()
	}
	if params == nil {
		params = struct{}{}
	}
	ch := make(chan bidiMsg, 1)
	b.mu.Lock()
	if b.pending == nil {
		err := b.err
		b.mu.Unlock()
		return fmt.Errorf("%s: %w", method, err)
	}
	b.nextID++
	id := b.nextID
	b.pending[id] = ch
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		if b.pending != nil {
			delete(b.pending, id)
		}
		b.mu.Unlock()
	}()

	msg, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	var frame bytes.Buffer
	if err := wsutil.WriteClientText(&frame, msg); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if _, err := b.w.Write(frame.Bytes()); err != nil {
		return fmt.Errorf("%s: writing: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Type == "error" {
			return fmt.Errorf("%s: %s: %s", method, m.Error, m.Message)
		}
		if out != nil {
			if err := json.Unmarshal(m.Result, out); err != nil {
				return fmt.Errorf("%s: decoding %.200s: %w", method, m.Result, err)
			}
		}
		return nil
	case <-b.dead:
		b.mu.Lock()
		err := b.err
		b.mu.Unlock()
		return fmt.Errorf("%s: %w", method, err)
	case <-ctx.Done():
		return fmt.Errorf("%s: no answer: %w", method, ctx.Err())
	}
}

// evaluate runs a JS expression in a browsing context (awaiting it when it
// is a promise) and decodes its JSON-stringified value into out.
func (b *bidi) evaluate(ctx context.Context, browsingContext, expr string, out any) error {
	var res struct {
		Type   string `json:"type"` // "success" or "exception"
		Result struct {
			Type  string `json:"type"`
			Value any    `json:"value"`
		} `json:"result"`
		ExceptionDetails struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	err := b.call(ctx, "script.evaluate", map[string]any{
		"expression":      "(async () => JSON.stringify(await (" + expr + ")))()",
		"target":          map[string]any{"context": browsingContext},
		"awaitPromise":    true,
		"resultOwnership": "none",
	}, &res)
	if err != nil {
		return err
	}
	if res.Type == "exception" {
		return fmt.Errorf("script threw: %s", res.ExceptionDetails.Text)
	}
	text, ok := res.Result.Value.(string)
	if res.Result.Type == "undefined" {
		text, ok = "null", true
	}
	if !ok {
		return fmt.Errorf("script result of type %s, want a JSON string", res.Result.Type)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal([]byte(text), out)
}

// close drops the socket (after browser.close or session.end) and waits
// briefly for the reader to stop.
func (b *bidi) close() {
	b.conn.Close()
	select {
	case <-b.dead:
	case <-time.After(3 * time.Second):
	}
}
