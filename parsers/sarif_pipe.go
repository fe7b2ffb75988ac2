package parsers

// convPipe converts a results array's results on a goroutine of its own
// (a pipe) while the decoder reads the next ones: on a large report,
// reading the tokens and turning results into findings each take about
// half the time. Findings are emitted in the order of the input, from one
// goroutine at a time. An array of fewer than one batch is converted on
// the caller's goroutine.
type convPipe struct {
	p     *pipe[convItem]
	errAt int // the index of the result whose conversion failed; written by the pipe's goroutine
}

type convItem struct {
	res sarifResult
	j   int
}

// convBatch is the number of results handed over at once.
const convBatch = pipeBatch

func newConvPipe(r *sarifRun) *convPipe {
	c := &convPipe{}
	c.p = newPipe(func(it *convItem) error {
		if err := r.convert(&it.res, it.j); err != nil {
			c.errAt = it.j
			return err
		}
		return nil
	})
	return c
}

// slot returns a zeroed result for the decoder to fill: it is converted by
// push, or given back by drop. The slot of an earlier call may move.
func (c *convPipe) slot() *sarifResult { return &c.p.slot().res }

// drop gives back the last slot unconverted.
func (c *convPipe) drop() { c.p.drop() }

// push queues the last slot as the j-th result. It returns false once the
// converter has failed, when the decoder should stop and call finish.
func (c *convPipe) push(j int) bool {
	c.p.batch[len(c.p.batch)-1].j = j
	return c.p.push()
}

// stop ends the converter without converting what is queued: for a
// decoder that panicked. It does nothing after finish.
func (c *convPipe) stop() { c.p.stop() }

// finish converts what is queued and waits for it. It returns the index
// of the result of the first conversion error, and the error; a panic of
// the converter is raised again here, on the caller's goroutine.
func (c *convPipe) finish() (int, error) {
	if err := c.p.finish(); err != nil {
		return c.errAt, err
	}
	return 0, nil
}
