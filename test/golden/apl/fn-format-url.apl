// expect: parts joined as scheme://user:pass@host:port/path?query#fragment, query bag form-encoded (space -> +); inverse of parse_url -> ["https://example.com:8080/a/b?q=x+y#top","http://u:p@h.com/x?k=v#f"]
print a = format_url(dynamic({"scheme":"https","host":"example.com","port":"8080","path":"/a/b","query":{"q":"x y"},"fragment":"top"})), b = format_url(parse_url("http://u:p@h.com/x?k=v#f"))
