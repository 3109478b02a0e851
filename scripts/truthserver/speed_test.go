package main

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"reflect"
	"testing"
	"time"
)

func TestSpeedMeter(t *testing.T) {
	var m speedMeter
	m.add(2500*time.Millisecond, 100, 50*time.Microsecond)
	m.add(300*time.Millisecond, 10, 4*time.Microsecond)
	m.add(2900*time.Millisecond, 50, 30*time.Microsecond)
	m.add(time.Second, 0, time.Millisecond) // no work: not counted
	want := []SpeedSlice{{AtS: 0, Iters: 10, Ns: 4000}, {AtS: 2, Iters: 150, Ns: 80000}}
	if got := m.drain(); !reflect.DeepEqual(got, want) {
		t.Errorf("drain = %+v, want %+v", got, want)
	}
	if got := m.drain(); len(got) != 0 {
		t.Errorf("second drain = %+v, want none", got)
	}
}

func TestServerSpeed(t *testing.T) {
	s := newServer(behaviour{work: 200}, log.New(io.Discard, "", 0))
	ctx := context.Background()
	for range 5 {
		get(ctx, t, s, "/")
	}
	code, body := get(ctx, t, s, "/speed")
	var sl []SpeedSlice
	if err := json.Unmarshal([]byte(body), &sl); code != http.StatusOK || err != nil {
		t.Fatalf("/speed: status %d, %v: %q", code, err, body)
	}
	var iters int64
	for _, x := range sl {
		if x.Ns <= 0 {
			t.Errorf("slice %+v: no time counted", x)
		}
		iters += x.Iters
	}
	if iters != 1000 || s.n.Load() != 5 {
		t.Errorf("/speed counted %d iterations over %d requests, want 1000 over 5 (/speed itself not counted)", iters, s.n.Load())
	}
}
