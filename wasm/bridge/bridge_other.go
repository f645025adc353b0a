//go:build !(js && wasm)

package bridge

// Host stand-ins: the UI package builds everywhere; nothing happens (and
// there is no worker: runs stay on the calling goroutine).

import (
	"errors"
	"runtime"

	"schedplay/wasm/protocol"
)

// Worker is a Web Worker (none on the host).
type Worker struct{}

func StartWorker(string, func(protocol.Msg)) (*Worker, error) {
	return nil, errors.New("no Web Workers here")
}
func StartPageWorker(string, func(protocol.Msg)) (*Worker, error) {
	return nil, errors.New("no page worker here")
}
func (w *Worker) Post(protocol.Message) error { return errors.New("no worker") }
func (w *Worker) Terminate()                  {}
func (w *Worker) Expose(string)               {}
func HardwareConcurrency() int                { return 0 }
func (w *Worker) PostFile(protocol.OpenTrace, string) (string, float64, error) {
	return "", 0, errors.New("no worker")
}
func ReadFile(_ string, _ int, done func(string, []byte, error)) {
	done("", nil, errors.New("no files here"))
}
func SetList(string, []string) error                { return nil }
func RequestFrame(func()) error                     { return nil }
func Yield()                                        { runtime.Gosched() }
func SetAttr(string, string, string) error          { return nil }
func SetValueGen(string, int, string) (bool, error) { return false, nil }

func PageURL() string                                                     { return "" }
func Hash() string                                                        { return "" }
func ReplaceHash(string) error                                            { return nil }
func StorageGet(string) (string, bool, error)                             { return "", false, nil }
func StorageSet(string, string) error                                     { return nil }
func StorageRemove(string) error                                          { return nil }
func CopyText(string) error                                               { return nil }
func Download(string, string, []byte) error                               { return nil }
func CanvasSize(string) (int, int, error)                                 { return 0, 0, nil }
func SetCanvasHeight(string, int) error                                   { return nil }
func PutImage(string, []byte, int, int) error                             { return nil }
func Text(string, float64, float64, string, string) error                 { return nil }
func Line(string, float64, string) error                                  { return nil }
func Overlay(string, []Mark) error                                        { return nil }
func BuildSVG(string, []SVGNode) error                                    { return nil }
func Fill(string, string, func(*Markup)) (bool, error)                    { return false, nil }
func ChildCount(string) int                                               { return -1 }
func SetHeat(string, []string, []string) error                            { return nil }
func SetText(string, string) error                                        { return nil }
func SetStyle(string, string, string) error                               { return nil }
func EnsureCanvas(string, string, string, string, int, int) (bool, error) { return false, nil }
func On(string, string, func(Event)) error                                { return nil }
func OnTarget(string, string, func(Event)) error                          { return nil }
func Publish(string, any)                                                 {}
func PublishJSON(string, string)                                          {}
func SetValue(string, string) error                                       { return nil }
func Flag(string) bool                                                    { return false }
func Origin() string                                                      { return "" }
func Now() float64                                                        { return 0 }

func ObserveWidth(string, func(int)) error   { return nil }
func ClientWidth(string) int                 { return 0 }
func OnScroll(string, func(int)) error       { return nil }
func ScrollBy(string, float64) error         { return nil }
func SetScrollTop(string, int) error         { return nil }
func SetCanvasSize(string, int, int) error   { return nil }
func EnsureSpacer(string, string, int) error { return nil }

// ImageBuf is a canvas's kept ImageData (none on the host).
type ImageBuf struct{}

func (*ImageBuf) Put(string, []byte, int, int) error { return nil }

func (*ImageBuf) PutRows(string, []byte, int, int, int, int) error { return nil }
func FirstSeen(string) bool                                        { return false }
