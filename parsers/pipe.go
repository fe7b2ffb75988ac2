package parsers

import "sync/atomic"

// pipe hands items to a goroutine of its own that works on them while the
// caller reads the next ones, so that a large report is read on two cores:
// the SARIF reader's results are converted there (convPipe), and every
// reader's findings are numbered, asked about and handed on there
// (readOne). Items go over in batches, in order, and are worked on by one
// goroutine at a time, in the order they were pushed. Until a whole batch
// is queued nothing is started: a small report is worked on by the
// caller's goroutine, at finish.
//
// The first error of work stops the work: the items after it are dropped,
// push returns false from then on, and finish returns the error. A panic
// of work is raised again by finish, on the caller's goroutine. stop ends
// the goroutine without working on what is queued (the caller's reading
// failed or panicked); after finish or stop the pipe is done.
type pipe[T any] struct {
	work    func(*T) error
	batch   []T // being filled by the caller
	started bool
	ended   bool
	full    chan []T
	free    chan []T
	done    chan struct{}
	failed  atomic.Bool // set on an error or a panic of work, or by stop
	// Written by the goroutine, read after done is closed.
	err      error
	panicked any
}

// serial, set by tests, reads every report on the caller's goroutine
// alone (no pipe started, nothing read ahead): the reference the findings
// read on several goroutines are compared with.
var serial bool

// started counts the goroutines the readers started (pipes and reads
// ahead), for the tests that check they ran.
var started atomic.Int64

// pipeBatch is the number of items handed over at once; pipeInFlight
// batches may wait for the goroutine before the caller waits in turn.
const (
	pipeBatch    = 256
	pipeInFlight = 2
)

// newPipe returns a pipe that calls work on each item. The first batch
// starts small and grows to pipeBatch: a report of a few findings (a
// directory of thousands of small reports) does not pay for a whole batch.
func newPipe[T any](work func(*T) error) *pipe[T] {
	return &pipe[T]{work: work, batch: make([]T, 0, 8)}
}

// slot returns a zeroed item for the caller to fill: it is queued by push,
// or given back by drop. The slot of an earlier call may move.
func (p *pipe[T]) slot() *T {
	var zero T
	p.batch = append(p.batch, zero)
	return &p.batch[len(p.batch)-1]
}

// drop gives back the last slot.
func (p *pipe[T]) drop() { p.batch = p.batch[:len(p.batch)-1] }

// push queues the last slot. It returns false once work has failed, when
// the caller should stop reading and call finish for the error.
func (p *pipe[T]) push() bool {
	if len(p.batch) < pipeBatch {
		return !p.failed.Load()
	}
	if !p.started {
		if serial { // worked on here, a batch at a time
			for i := range p.batch {
				if err := p.work(&p.batch[i]); err != nil {
					p.err = err
					p.failed.Store(true)
					break
				}
			}
			clear(p.batch)
			p.batch = p.batch[:0]
			return !p.failed.Load()
		}
		p.start()
	}
	if p.failed.Load() {
		return false
	}
	p.full <- p.batch
	select {
	case b := <-p.free:
		p.batch = b[:0]
	default:
		p.batch = make([]T, 0, pipeBatch)
	}
	return true
}

func (p *pipe[T]) start() {
	p.started = true
	p.full = make(chan []T, pipeInFlight)
	p.free = make(chan []T, pipeInFlight+1)
	p.done = make(chan struct{})
	started.Add(1)
	go func() {
		defer close(p.done)
		for b := range p.full {
			// After a failure the batches are still taken, so that the
			// caller never waits on a goroutine that has stopped.
			if !p.failed.Load() {
				p.run(b)
			}
			clear(b) // drop the items' strings before the batch waits for reuse
			select {
			case p.free <- b:
			default:
			}
		}
	}()
}

// run works on one batch, keeping the first error or panic.
func (p *pipe[T]) run(b []T) {
	defer func() {
		if v := recover(); v != nil {
			p.panicked = v
			p.failed.Store(true)
		}
	}()
	for i := range b {
		if err := p.work(&b[i]); err != nil {
			p.err = err
			p.failed.Store(true)
			return
		}
	}
}

// finish works on what is queued, waits for it, and returns the first
// error of work; a panic of work is raised again here. Called again, it
// returns the same error.
func (p *pipe[T]) finish() error {
	if p.ended {
		return p.err
	}
	p.ended = true
	if !p.started {
		for i := range p.batch {
			if p.err != nil {
				break
			}
			if err := p.work(&p.batch[i]); err != nil {
				p.err = err
			}
		}
		clear(p.batch)
		p.batch = nil
		return p.err
	}
	if len(p.batch) > 0 && !p.failed.Load() {
		p.full <- p.batch
	}
	p.batch = nil
	close(p.full)
	<-p.done
	if p.panicked != nil {
		panic(p.panicked)
	}
	return p.err
}

// stop ends the goroutine, if any, without working on what is queued, and
// waits for it: for a reading that failed or panicked. It does nothing
// after finish.
func (p *pipe[T]) stop() {
	if p.ended {
		return
	}
	p.ended = true
	p.batch = nil
	if !p.started {
		return
	}
	p.failed.Store(true)
	close(p.full)
	<-p.done
}
