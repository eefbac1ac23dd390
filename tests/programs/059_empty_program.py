# value: null
pass
