# error: RuntimeError: stop here
# stdout: "printed\n"
# emitted: ["before"]
emit(value="before")
print("printed")
fail(message="stop here")
emit(value="after")
