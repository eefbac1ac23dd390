# value: 6710
# stdout: ""
# effects: [["write_file",{"content":"region,month,amount\nnorth,jan,1200\nsouth,jan,950\nnorth,feb,1430\nsouth,feb,1010\neast,jan,700\neast,feb,820\nwest,feb,600\n","path":"/data/sales.csv"}]]
# calls: [["read_file",{"path":"/data/sales.csv"}],["read_file",{"path":"/data/sales.csv"}],["write_file",{"content":"region,month,amount\nnorth,jan,1200\nsouth,jan,950\nnorth,feb,1430\nsouth,feb,1010\neast,jan,700\neast,feb,820\nwest,feb,600\n","path":"/data/sales.csv"}]]
# Add a row to the sales sheet, then recompute the total from the file.
path = "/data/sales.csv"
text = read_file(path=path)
write_file(path=path, content=text + "west,feb,600\n")
rows = read_file(path=path).strip().split("\n")[1:]
result = sum(int(r.split(",")[2]) for r in rows)
