package main

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/loadverdict/loadverdict/internal/testguard"
)

// chromium finds a Chromium or Chrome to drive. Without one the browser
// tests are skipped, except in CI (CI=true), where .ci/run installs
// Debian's chromium and a missing browser is a failure.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium on PATH: CI must run the browser test (.ci/run installs Debian's chromium)")
	}
	t.Skip("no chromium on PATH (apt-get install chromium): the report.html browser test is skipped")
	return ""
}

// pageLoad is what a browser saw while it loaded a page: requests,
// console messages and errors, dialogs.
type pageLoad struct {
	mu       sync.Mutex
	requests []string
	problems []string // console errors and warnings, exceptions, error log entries
	dialogs  []string
	page     string // the page's URL
}

func (l *pageLoad) listen(ev any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		l.requests = append(l.requests, ev.Request.URL)
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			l.problems = append(l.problems, "console."+string(ev.Type))
		}
	case *runtime.EventExceptionThrown:
		l.problems = append(l.problems, "exception: "+ev.ExceptionDetails.Text)
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
			l.problems = append(l.problems, string(ev.Entry.Level)+": "+ev.Entry.Text+" "+ev.Entry.URL)
		}
	case *page.EventJavascriptDialogOpening:
		l.dialogs = append(l.dialogs, ev.Message)
	}
}

// figureBox is an image's rendered box in CSS pixels.
type figureBox struct {
	Alt                 string
	X, Y, W, H          float64
	NaturalW, NaturalH  float64
	Complete            bool
	InsideFigureCaption bool
}

// pageFacts are what the test reads from the loaded page.
type pageFacts struct {
	Verdict       string
	VerdictHeight float64
	Visibility    string
	Text          string
	Figures       []figureBox
	Scripts       int
	Handlers      []string // on* attributes
	Links         []string // href values
	Sources       []string // src values
	ScrollW       float64
	ViewW         float64
	// Gate is the gate's state box (.gate): its text, top edge, height
	// and colour (its left border); VerdictY the verdict's top edge.
	Gate                   string
	GateY, GateH, VerdictY float64
	GateBg                 string
	// Tables are the comparison and numbers tables: per table, the
	// rightmost edge of its first two columns, at no scrolling.
	Tables []tableBox
}

// tableBox is where a table's first two columns end.
type tableBox struct {
	Class      string
	Rows       int
	RightOfTwo float64
}

const factsJS = `(() => {
  const v = document.querySelector('.verdict');
  const r = v ? v.getBoundingClientRect() : {height: 0};
  const figs = [...document.querySelectorAll('figure img')].map(i => {
    const b = i.getBoundingClientRect();
    return {Alt: i.alt, X: b.x + window.scrollX, Y: b.y + window.scrollY, W: b.width, H: b.height,
      NaturalW: i.naturalWidth, NaturalH: i.naturalHeight, Complete: i.complete};
  });
  const handlers = [];
  for (const el of document.querySelectorAll('*')) {
    for (const a of el.attributes) { if (a.name.toLowerCase().startsWith('on')) handlers.push(el.tagName + ' ' + a.name); }
  }
  return {Verdict: v ? v.innerText : '', VerdictHeight: r.height, Visibility: v ? getComputedStyle(v).visibility : '',
    Text: document.body.innerText, Figures: figs, Scripts: document.scripts.length, Handlers: handlers,
    Links: [...document.querySelectorAll('[href]')].map(a => a.getAttribute('href')),
    Sources: [...document.querySelectorAll('[src]')].map(a => a.getAttribute('src').slice(0, 40)),
    ScrollW: document.documentElement.scrollWidth, ViewW: window.innerWidth,
    ...(() => {
      const g = document.querySelector('.gate');
      if (!g) return {};
      const b = g.getBoundingClientRect();
      return {Gate: g.innerText, GateY: b.y + window.scrollY, GateH: b.height, GateBg: getComputedStyle(g).borderLeftColor,
        VerdictY: r.y + window.scrollY};
    })(),
    Tables: [...document.querySelectorAll('table.compare, table.numbers')].map(t => {
      let right = 0;
      for (const tr of t.rows) {
        const c = tr.cells[Math.min(1, tr.cells.length - 1)];
        if (c) right = Math.max(right, c.getBoundingClientRect().right);
      }
      return {Class: t.className, Rows: t.rows.length, RightOfTwo: right};
    })};
})()`

// sharedBrowser is the headless Chromium the browser tests share (a
// browser takes seconds to start, a tab a fraction of one; each page is
// opened in a tab of its own, with its own listeners and viewport). The
// first browse starts it; TestMain stops it.
var sharedBrowser struct {
	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
	err    error
}

// browserContext returns the context of the shared browser (bin),
// starting it the first time.
func browserContext(t *testing.T, bin string) context.Context {
	t.Helper()
	b := &sharedBrowser
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "loadverdict-chromium-")
		if err != nil {
			b.err = err
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
			chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(dir), chromedp.WindowSize(1280, 900),
		}
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, cancelB := chromedp.NewContext(actx)
		b.ctx = bctx
		b.cancel = func() {
			cancelB()
			cancelA()
			os.RemoveAll(dir)
		}
		// The browser starts with the first action on a context without
		// a time-out (one would close it when it ends).
		b.err = chromedp.Do(bctx)
	})
	if b.err != nil {
		t.Fatalf("starting %s: %v", bin, b.err)
	}
	return b.ctx
}

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedBrowser.cancel != nil {
		sharedBrowser.cancel()
	}
	os.Exit(code)
}

// browse loads file in a new tab of the shared headless Chromium, width
// px wide, and returns what it saw, the page's facts and a screenshot of
// each figure and of the whole page.
func browse(t *testing.T, bin, file string, width int) (*pageLoad, pageFacts, [][]byte, []byte) {
	t.Helper()
	tab, cancelTab := chromedp.NewContext(browserContext(t, bin))
	defer cancelTab()
	if err := chromedp.Do(tab); err != nil { // opens the tab
		t.Fatalf("a new tab: %v", err)
	}
	// A hang guard, not a speed check: a page loads slowly on a busy machine.
	bctx, cancel := context.WithTimeout(tab, testguard.Deadline)
	defer cancel()
	load := &pageLoad{}
	if err := chromedp.Listen(bctx, load.listen); err != nil {
		t.Fatal(err)
	}
	u := (&url.URL{Scheme: "file", Path: file}).String()
	// Headless Chromium keeps a window at least 500 px wide: the
	// viewport is set to width as a phone's would be.
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(int64(width), 900), chromedp.Navigate(u)); err != nil {
		t.Fatalf("loading %s: %v", u, err)
	}
	facts, err := chromedp.Run(bctx, chromedp.Evaluate[pageFacts](factsJS))
	if err != nil {
		t.Fatalf("reading the page: %v", err)
	}
	var shots [][]byte
	for _, f := range facts.Figures {
		if f.W <= 0 || f.H <= 0 {
			shots = append(shots, nil)
			continue
		}
		r, err := chromedp.Call(bctx, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Clip: &page.Viewport{X: f.X, Y: f.Y, Width: f.W, Height: f.H, Scale: 1}, CaptureBeyondViewport: ptrTo(true)})
		if err != nil {
			t.Fatalf("screenshot of figure %q: %v", f.Alt, err)
		}
		shots = append(shots, r.Data)
	}
	full, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	load.mu.Lock()
	defer load.mu.Unlock()
	load.page = u
	return load, facts, shots, full
}

// foreign are the requests of a page load other than the page itself
// (data: URIs are not requests).
func (l *pageLoad) foreign() []string {
	var out []string
	for _, r := range l.requests {
		if r != l.page && !strings.HasPrefix(r, "data:") {
			out = append(out, r)
		}
	}
	return out
}

func ptrTo[T any](v T) *T { return &v }

// inked reports whether a screenshot shows a drawing: at least 1 % of
// its pixels not white (lines, text, grid) and some of them dark.
func inked(t *testing.T, shot []byte) bool {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	b := img.Bounds()
	ink, dark := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if min(r, g, bl) < 0xe800 {
				ink++
			}
			if (r+g+bl)/3 < 0x8000 {
				dark++
			}
		}
	}
	return b.Dx() > 100 && b.Dy() > 50 && ink*100 >= b.Dx()*b.Dy() && dark >= 100
}

// The seed's report.html, opened in a real browser: it loads with no
// console error and no request but the file, the verdict is visible,
// every figure has a drawn box, it fits a phone's width; a screenshot is
// kept under testdata/out/.
func TestReportHTMLInBrowser(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	stdout, errOut, err := runCLI(t, "", "report", "-o", dir, seedFile)
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	headline, _, _ := strings.Cut(stdout, "\n")
	file := filepath.Join(dir, "report.html")
	for _, width := range []int{1280, 390} { // a desktop, a phone
		full := checkPage(t, bin, file, width, headline, 3, "throughput, latency and scaling")
		if width == 1280 {
			if err := os.MkdirAll("testdata/out", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile("testdata/out/report-seed.png", full, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := image.DecodeConfig(bytes.NewReader(full)); err != nil {
			t.Errorf("screenshot: %v", err)
		}
	}
}

// Hostile names (an experiment, systems) stay text in report.html: no
// dialog, no request, no script, no handler, no link out of the page.
func TestReportHTMLHostileInBrowser(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	exp := `<img src=x onerror=alert(1)>`
	a, b := `](javascript:alert(1))`, `<script>alert(2)</script><a href="https://evil.example/">x</a>`
	if _, errOut, err := runCLI(t, "", "report", "-o", dir, "--experiment", exp, "--label", "localhost:5555="+a, "--label", "localhost:80="+b, seedFile); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	load, facts, _, _ := browse(t, bin, filepath.Join(dir, "report.html"), 1280)
	if len(load.dialogs) > 0 {
		t.Errorf("dialogs opened: %q", load.dialogs)
	}
	if f := load.foreign(); len(f) > 0 {
		t.Errorf("requests %q: the page may load nothing but itself", f)
	}
	if len(load.problems) > 0 {
		t.Errorf("console: %q", load.problems)
	}
	if facts.Scripts != 0 || len(facts.Handlers) > 0 {
		t.Errorf("%d scripts, handlers %q", facts.Scripts, facts.Handlers)
	}
	for _, h := range facts.Links {
		if !strings.HasPrefix(h, "#") {
			t.Errorf("link to %q", h)
		}
	}
	for _, s := range facts.Sources {
		if !strings.HasPrefix(s, "data:image/svg+xml;base64,") {
			t.Errorf("source %q", s)
		}
	}
	for _, want := range []string{exp, a, "<script>alert(2)</script>"} {
		if !strings.Contains(facts.Text, want) {
			t.Errorf("the page does not show %q as text", want)
		}
	}
}

// The harness sees what the report tests say is absent: a request to
// another origin and a console error, on a page without report.html's
// policy (the request goes to a closed port on loopback).
func TestBrowserHarnessSeesViolations(t *testing.T) {
	bin := chromium(t)
	file := filepath.Join(t.TempDir(), "bad.html")
	doc := `<!DOCTYPE html><html><body><p class="verdict">v</p><img src="http://127.0.0.1:9/x.png"><script>console.error("boom")</script></body></html>`
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	load, facts, _, _ := browse(t, bin, file, 800)
	if f := load.foreign(); len(f) != 1 || f[0] != "http://127.0.0.1:9/x.png" {
		t.Errorf("requests beyond the page %q, want the one to http://127.0.0.1:9/x.png", f)
	}
	if len(load.problems) == 0 || facts.Scripts != 1 {
		t.Errorf("console %q, %d scripts: the console error went unnoticed", load.problems, facts.Scripts)
	}
}

// TestHistoryHTMLWithControlInBrowser: the committed history report with
// a control (examples/nightly-control/report.html: each metric as
// measured and over the control, a column over the control in the
// experiments' tables) in a real browser, on a desktop and a phone: its
// headline shows, its 6 figures are drawn, it loads nothing but itself,
// and it does not scroll sideways.
func TestHistoryHTMLWithControlInBrowser(t *testing.T) {
	bin := chromium(t)
	file, err := filepath.Abs("../../examples/nightly-control/report.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{1280, 390} {
		checkPage(t, bin, file, width, "Regression: svc", 6, "3 as measured and 3 over the control")
	}
}

// checkPage loads file in the browser at width and checks it as a user
// sees it: it loads nothing but itself, logs no problem, shows a verdict
// holding headline, draws figures figures (each complete, with alt text,
// not blank; what says which) and does not scroll sideways. It returns
// the full-page screenshot.
func checkPage(t *testing.T, bin, file string, width int, headline string, figures int, what string) []byte {
	t.Helper()
	load, facts, shots, full := browse(t, bin, file, width)
	if f := load.foreign(); len(f) > 0 {
		t.Errorf("width %d: requests %q: the page may load nothing but itself", width, f)
	}
	if len(load.problems) > 0 {
		t.Errorf("width %d: console: %q", width, load.problems)
	}
	if !strings.Contains(facts.Verdict, headline) || facts.VerdictHeight <= 0 || facts.Visibility != "visible" {
		t.Errorf("width %d: verdict %q (height %v, %s), want it to show %q", width, facts.Verdict, facts.VerdictHeight, facts.Visibility, headline)
	}
	if len(facts.Figures) != figures {
		t.Errorf("width %d: %d figures, want %d: %s", width, len(facts.Figures), figures, what)
	}
	for i, f := range facts.Figures {
		if !f.Complete || f.NaturalW <= 0 || f.W <= 0 || f.H <= 0 || f.Alt == "" {
			t.Errorf("width %d: figure %d not drawn: %+v", width, i, f)
		} else if !inked(t, shots[i]) {
			t.Errorf("width %d: figure %q is blank", width, f.Alt)
		}
	}
	if facts.ScrollW > facts.ViewW+1 {
		t.Errorf("width %d: the page is %v px wide: it scrolls sideways", width, facts.ScrollW)
	}
	return full
}
