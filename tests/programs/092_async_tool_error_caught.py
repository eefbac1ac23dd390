# value: "caught: nope"
try:
    await fail(message="nope")
except RuntimeError as error:
    result = "caught: " + str(error)
