package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spine-sandbox/spine/host"
)

// A tool that needs approval stops the program at its call; the journal is
// data to store anywhere, and Resume continues the program from it without
// running the calls it already made.
func ExampleEngine_Resume() {
	send := host.Func("send_email", func(_ context.Context, a struct {
		To string `json:"to"`
	}) (string, error) {
		fmt.Println("(sending to", a.To+")")
		return "sent", nil
	})
	send.Spec.Approval = true
	engine, err := host.New(host.WithTools(send))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	resp, err := engine.Execute(context.Background(), host.Request{
		Source: "print('drafting')\nresult = send_email(to='ada@example.com')",
	})
	if !errors.Is(err, host.ErrSuspended) {
		panic(err)
	}
	fmt.Print(resp.Stdout)
	fmt.Println(resp.Status, resp.Journal.Pending.Tool, string(resp.Journal.Pending.Args))
	stored, _ := json.Marshal(resp.Journal) // a JournalStore keeps it, maybe for days

	var journal host.Journal
	json.Unmarshal(stored, &journal)
	resp, err = engine.Resume(context.Background(), &journal, host.Approve())
	if err != nil {
		panic(err)
	}
	fmt.Print(resp.Stdout)
	fmt.Println(resp.Status, string(resp.Value))
	// Output:
	// drafting
	// suspended send_email {"to":"ada@example.com"}
	// (sending to ada@example.com)
	// drafting
	// ok "sent"
}

// A session keeps the program's namespace from one execution to the next.
func ExampleEngine_Session() {
	engine, err := host.New()
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	session, err := engine.Session(context.Background(), host.SessionOptions{})
	if err != nil {
		panic(err)
	}
	defer session.Close()
	for _, source := range []string{"import math\nradius = 2", "result = round(math.pi * radius ** 2, 2)"} {
		resp, err := session.Execute(context.Background(), host.Request{Source: source})
		if err != nil {
			panic(err)
		}
		fmt.Println(resp.Status, string(resp.Value))
	}
	// Output:
	// ok null
	// ok 12.57
}
