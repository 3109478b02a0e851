package ingest

import (
	"testing"

	"github.com/loadverdict/loadverdict/ingest/requests"
)

// TestErrorStatuses: a window's failed statuses, most frequent first, the
// distinct ones bounded (the rest under -1).
func TestErrorStatuses(t *testing.T) {
	var c []requests.StatusCount
	for _, s := range []int32{503, 0, 503, 500, 503, 0} {
		c = requests.AddStatus(c, s, 1)
	}
	if got := requests.StatusesText(c); got == nil || *got != "503:3,0:2,500:1" {
		t.Errorf("statuses %v, want 503:3,0:2,500:1", got)
	}
	if requests.StatusesText(nil) != nil {
		t.Error("no failed request must give null")
	}
	c = nil
	for s := range int32(requests.MaxStatuses + 5) {
		c = requests.AddStatus(c, 400+s, 1)
	}
	if len(c) != requests.MaxStatuses {
		t.Fatalf("%d distinct statuses kept, want %d", len(c), requests.MaxStatuses)
	}
	var other int64
	for _, x := range c {
		if x.Status == requests.OtherStatus {
			other = x.N
		}
	}
	if other != 6 { // 15 kept, the 6 beyond them under -1
		t.Errorf("other statuses %d, want 6", other)
	}
}
