# expect: ok
# value: ["example", 8080, true, ["server", "flags"]]
# configparser from a string.
import configparser
cp = configparser.ConfigParser()
cp.read_string("[server]\nhost = example\nport = 8080\n[flags]\ndebug = yes\n")
result = [cp["server"]["host"], cp.getint("server", "port"), cp.getboolean("flags", "debug"), cp.sections()]
