# value: ["meeting.txt","todo.txt"]
# stdout: ""
# effects: [["write_file",{"content":"standup at 10","path":"/notes/meeting.txt"}]]
# calls: [["list_dir",{"path":"/notes"}],["write_file",{"content":"standup at 10","path":"/notes/meeting.txt"}]]
# Create a notes file and check the directory listing.
write_file(path="/notes/meeting.txt", content="standup at 10")
result = list_dir(path="/notes")
