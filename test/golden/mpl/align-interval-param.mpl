param $__interval: Duration;
golden:cpu | where host == "h2" | align to $__interval using min
