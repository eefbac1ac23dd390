# expect: ok
# value: [["192.168.0.1", "192.168.0.2", "192.168.0.3", "192.168.0.4", "192.168.0.5", "192.168.0.6"], true, "0000:0000:0000:0000:0000:0000:0000:0001", 8]
# ipaddress arithmetic (no network involved).
import ipaddress
net = ipaddress.ip_network("192.168.0.0/29")
result = [[str(h) for h in net.hosts()], ipaddress.ip_address("10.0.0.1") in ipaddress.ip_network("10.0.0.0/8"), str(ipaddress.ip_address("::1").exploded), net.num_addresses]
