package protocol

import "fmt"

// CrossingIDs checks the ids of one child's crossings. Threads of a program
// cross at once, so an answer must find its way back to the thread that
// asked: each crossing carries an id, and its answer the same id. The
// child numbers its crossings 1, 2, 3... in the order it sends them (it
// takes the next number while it holds its channel's write lock), so the
// host can tell a forged id from a real one without keeping a set: any
// other number than the next one is a breach. An id never comes back, so
// a duplicate can never make two answers race for one thread.
type CrossingIDs struct {
	last uint64
}

// Next accepts the id of the crossing just read, or names the breach.
func (c *CrossingIDs) Next(id uint64) error {
	switch {
	case id == c.last+1:
		c.last = id
		return nil
	case id != 0 && id <= c.last:
		return fmt.Errorf("%w: crossing id %d was used already (the next is %d)", ErrBreach, id, c.last+1)
	default:
		return fmt.Errorf("%w: unknown crossing id %d (the next is %d)", ErrBreach, id, c.last+1)
	}
}
