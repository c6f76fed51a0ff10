golden:cpu | where host < #/h/
