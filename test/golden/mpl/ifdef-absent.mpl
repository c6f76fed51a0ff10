param $region: string;
golden:cpu | ifdef($region) { where region == $region } | align to 1h using count
