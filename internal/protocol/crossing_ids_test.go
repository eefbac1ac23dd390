package protocol

import (
	"errors"
	"strings"
	"testing"
)

func TestCrossingIDsAcceptOnlyTheNextOne(t *testing.T) {
	var ids CrossingIDs
	for id := uint64(1); id <= 3; id++ {
		if err := ids.Next(id); err != nil {
			t.Fatalf("id %d: %v", id, err)
		}
	}
	for _, tc := range []struct {
		id   uint64
		want string
	}{
		{3, "crossing id 3 was used already (the next is 4)"},
		{1, "crossing id 1 was used already (the next is 4)"},
		{0, "unknown crossing id 0 (the next is 4)"},
		{5, "unknown crossing id 5 (the next is 4)"},
		{1 << 63, "unknown crossing id 9223372036854775808 (the next is 4)"},
	} {
		err := ids.Next(tc.id)
		if !errors.Is(err, ErrBreach) || !strings.HasSuffix(err.Error(), tc.want) {
			t.Fatalf("id %d: %v, want a breach ending %q", tc.id, err, tc.want)
		}
	}
	if err := ids.Next(4); err != nil {
		t.Fatalf("a refused id must not move the count: %v", err)
	}
}
