package ingest

import "testing"

// TestErrorStatuses: a window's failed statuses, most frequent first, the
// distinct ones bounded (the rest under -1).
func TestErrorStatuses(t *testing.T) {
	var c []statusCount
	for _, s := range []int32{503, 0, 503, 500, 503, 0} {
		c = addStatus(c, s, 1)
	}
	if got := statusesText(c); got == nil || *got != "503:3,0:2,500:1" {
		t.Errorf("statuses %v, want 503:3,0:2,500:1", got)
	}
	if statusesText(nil) != nil {
		t.Error("no failed request must give null")
	}
	c = nil
	for s := range int32(maxStatuses + 5) {
		c = addStatus(c, 400+s, 1)
	}
	if len(c) != maxStatuses {
		t.Fatalf("%d distinct statuses kept, want %d", len(c), maxStatuses)
	}
	var other int64
	for _, x := range c {
		if x.status == otherStatus {
			other = x.n
		}
	}
	if other != 6 { // 15 kept, the 6 beyond them under -1
		t.Errorf("other statuses %d, want 6", other)
	}
}
