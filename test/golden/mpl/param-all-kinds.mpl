param $ds: Dataset;
param $step: Duration;
param $host: Regex;
param $min: int;
$ds:cpu | where host == $host and cores >= $min | align to $step using max
