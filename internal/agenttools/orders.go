package agenttools

import (
	"encoding/json"
	"fmt"
	"sort"
)

type order struct {
	ID       string   `json:"order_id"`
	Customer string   `json:"customer"`
	Status   string   `json:"status"`
	Items    []string `json:"items"`
	Total    float64  `json:"total"`
}

func fixtureOrders() []*order {
	return []*order{
		{"ORD-1001", "alice", "processing", []string{"keyboard"}, 42.5},
		{"ORD-1002", "alice", "shipped", []string{"monitor", "cable"}, 219.0},
		{"ORD-1003", "bob", "processing", []string{"mouse"}, 19.99},
		{"ORD-1004", "bob", "delivered", []string{"laptop stand"}, 35.0},
		{"ORD-1005", "carol", "processing", []string{"headset", "webcam"}, 129.0},
		{"ORD-1006", "alice", "processing", []string{"usb hub"}, 24.0},
	}
}

func orderDefs() []def {
	return []def{
		{name: "list_orders", resource: "orders", description: "List a customer's orders (order_id, status, total), oldest first.",
			schema: `{"type":"object","properties":{"customer":{"type":"string"}},"required":["customer"],"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct{ Customer string }]("list_orders", args)
				if err != nil {
					return nil, err
				}
				out := []map[string]any{}
				for _, o := range w.orders {
					if o.Customer == in.Customer {
						out = append(out, map[string]any{"order_id": o.ID, "status": o.Status, "total": o.Total})
					}
				}
				sort.Slice(out, func(i, j int) bool { return out[i]["order_id"].(string) < out[j]["order_id"].(string) })
				return out, nil
			}},
		{name: "get_order", resource: "orders", description: "Return one order with its items and status.",
			schema: `{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"],"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct {
					OrderID string `json:"order_id"`
				}]("get_order", args)
				if err != nil {
					return nil, err
				}
				o, ok := w.orders[in.OrderID]
				if !ok {
					return nil, fmt.Errorf("order %s not found", in.OrderID)
				}
				return o, nil
			}},
		{name: "cancel_order", resource: "orders", description: "Cancel an order that has not shipped; return its new status.", effectful: true,
			schema: `{"type":"object","properties":{"order_id":{"type":"string"},"reason":{"type":"string"}},"required":["order_id"],"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct {
					OrderID string `json:"order_id"`
				}]("cancel_order", args)
				if err != nil {
					return nil, err
				}
				o, ok := w.orders[in.OrderID]
				if !ok {
					return nil, fmt.Errorf("order %s not found", in.OrderID)
				}
				if o.Status != "processing" {
					return nil, fmt.Errorf("cannot cancel %s: it is %s", o.ID, o.Status)
				}
				o.Status = "cancelled"
				return map[string]any{"order_id": o.ID, "status": o.Status}, nil
			}},
	}
}
