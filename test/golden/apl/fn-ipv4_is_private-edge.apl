// expect: a=true (10/8), b=true (172.16/12), c=false (172.32), d=true (192.168), e=false (8.8.8.8), f=null (invalid), g=true (172.31.255.255)
print a = ipv4_is_private("10.1.2.3"), b = ipv4_is_private("172.16.0.1"), c = ipv4_is_private("172.32.0.1"), d = ipv4_is_private("192.168.255.255"), e = ipv4_is_private("8.8.8.8"), f = ipv4_is_private("not an ip"), g = ipv4_is_private("172.31.255.255")
