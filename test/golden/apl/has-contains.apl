ds | summarize has_user = countif(msg has "user"), contains_log = countif(msg contains "LOG"), has_login = countif(msg has "login")
