package parsers

import "sync/atomic"

// convPipe converts a results array's results on a goroutine of its own
// while the decoder reads the next ones: on a large report, reading the
// tokens and turning results into findings each take about half the time.
// Results go over in batches, in order, so findings are emitted in the
// order of the input, from one goroutine at a time. An array of fewer than
// one batch is converted on the caller's goroutine.
type convPipe struct {
	r       *sarifRun
	batch   []convItem // being filled by the decoder
	started bool
	full    chan []convItem
	free    chan []convItem
	done    chan struct{}
	failed  atomic.Bool // set by the converter on an error or a panic
	// Written by the converter, read after done is closed.
	err      error
	errAt    int
	panicked any
}

type convItem struct {
	res sarifResult
	j   int
}

// convBatch is the number of results handed over at once; convInFlight
// batches may wait for the converter before the decoder waits in turn.
const (
	convBatch    = 256
	convInFlight = 2
)

// The first batch starts small and grows to convBatch: a log of a few
// results (thousands of small reports) does not pay for a whole batch.
func newConvPipe(r *sarifRun) *convPipe {
	return &convPipe{r: r, batch: make([]convItem, 0, 8)}
}

// slot returns a zeroed result for the decoder to fill: it is converted by
// push, or given back by drop. The slot of an earlier call may move.
func (p *convPipe) slot() *sarifResult {
	p.batch = append(p.batch, convItem{})
	return &p.batch[len(p.batch)-1].res
}

// drop gives back the last slot unconverted.
func (p *convPipe) drop() { p.batch = p.batch[:len(p.batch)-1] }

// push queues the last slot as the j-th result. It returns false once the
// converter has failed, when the decoder should stop and call finish.
func (p *convPipe) push(j int) bool {
	p.batch[len(p.batch)-1].j = j
	if len(p.batch) < convBatch {
		return true
	}
	if !p.started {
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
		p.batch = make([]convItem, 0, convBatch)
	}
	return true
}

func (p *convPipe) start() {
	p.started = true
	p.full = make(chan []convItem, convInFlight)
	p.free = make(chan []convItem, convInFlight+1)
	p.done = make(chan struct{})
	go func() {
		defer close(p.done)
		for b := range p.full {
			// After a failure the batches are still taken, so that the
			// decoder never waits on a converter that has stopped.
			if !p.failed.Load() {
				p.convert(b)
			}
			clear(b) // drop the results' strings before the batch waits for reuse
			select {
			case p.free <- b:
			default:
			}
		}
	}()
}

// convert converts one batch, keeping the first error or panic.
func (p *convPipe) convert(b []convItem) {
	defer func() {
		if v := recover(); v != nil {
			p.panicked = v
			p.failed.Store(true)
		}
	}()
	for i := range b {
		if err := p.r.convert(&b[i].res, b[i].j); err != nil {
			p.err, p.errAt = err, b[i].j
			p.failed.Store(true)
			return
		}
	}
}

// finish converts what is queued and waits for it. It returns the index
// of the result of the first conversion error, and the error; a panic of the converter
// is raised again here, on the caller's goroutine.
func (p *convPipe) finish() (int, error) {
	if !p.started {
		for i := range p.batch {
			if err := p.r.convert(&p.batch[i].res, p.batch[i].j); err != nil {
				return p.batch[i].j, err
			}
		}
		p.batch = p.batch[:0]
		return 0, nil
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
	return p.errAt, p.err
}
