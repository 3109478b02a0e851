package core

import (
	"runtime"
	"sync"
)

// BatchWorkers is how many goroutines work on batches of lines at once.
func BatchWorkers() int { return min(max(runtime.GOMAXPROCS(0), 1), 4) }

// InOrder runs a pipeline of batches: produce (its own goroutine) fills
// batches from get and hands them to put (false: stopped); workers run
// work on them; take gets them, in put order, on the calling goroutine.
// The pool holds workers + 2 batches from newB (produce resets them). A
// take error stops everything; InOrder returns when every goroutine ended.
func InOrder[B any](workers int, newB func() *B, produce func(get func() (*B, bool), put func() bool), work func(*B), take func(*B) error) error {
	type item struct {
		b     *B
		ready chan struct{}
	}
	inFlight := workers + 2
	free := make(chan *item, inFlight)
	for range inFlight {
		free <- &item{b: newB(), ready: make(chan struct{}, 1)}
	}
	toWork := make(chan *item, inFlight)
	order := make(chan *item, inFlight)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(order)
		defer close(toWork)
		var cur *item // the batch got last
		get := func() (*B, bool) {
			select {
			case cur = <-free:
				return cur.b, true
			case <-done:
				return nil, false
			}
		}
		put := func() bool {
			for _, ch := range []chan<- *item{order, toWork} {
				select {
				case ch <- cur:
				case <-done:
					return false
				}
			}
			return true
		}
		produce(get, put)
	})
	for range workers {
		wg.Go(func() {
			for it := range toWork {
				work(it.b)
				it.ready <- struct{}{}
			}
		})
	}
	var err error
	for it := range order {
		<-it.ready
		if err = take(it.b); err != nil {
			break
		}
		free <- it
	}
	close(done)
	for range order { // let the producer finish putting
	}
	wg.Wait()
	return err
}
