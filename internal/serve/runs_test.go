package serve

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// The store keeps the most recent runs within both bounds, evicting the
// oldest first, and never keeps a run larger than the whole byte budget.
func TestRunStoreIsBounded(t *testing.T) {
	st := newRunStore(3, 1000)
	resp := &host.Response{Status: host.StatusOK}
	var ids []string
	for range 4 {
		id, kept := st.add("", "x", resp, 99) // 100 bytes each
		if !kept {
			t.Fatal("a small run was not kept")
		}
		ids = append(ids, id)
	}
	if st.get(ids[0]) != nil || st.get(ids[1]) == nil || st.get(ids[3]) == nil || len(st.order) != 3 {
		t.Fatalf("count bound: kept %v of %v", st.order, ids)
	}
	big, kept := st.add("", "", resp, 850)
	if !kept || st.get(ids[1]) != nil || st.get(ids[2]) != nil || st.get(ids[3]) == nil || st.bytes != 950 {
		t.Fatalf("byte bound: kept %v, %d bytes", st.order, st.bytes)
	}
	if _, kept := st.add("", "", resp, 1001); kept || st.get(big) == nil {
		t.Fatal("a run over the whole budget was kept, or evicted the others")
	}
	if _, kept := newRunStore(0, 1000).add("", "", resp, 1); kept {
		t.Fatal("Runs < 0 keeps nothing")
	}
	if ids[0] == ids[1] || len(ids[0]) != 32 {
		t.Fatalf("ids %v", ids)
	}
}
