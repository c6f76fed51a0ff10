// expect: without QUARRY_GEOIP_DATABASE the function is a 400 that says how to configure it, never a 500: error invalid apl_invalid_argument (source: docs/apl.md geo_info_from_ip_address; https://learn.microsoft.com/kusto/query/geo-info-from-ip-address-function)
print ip_location = geo_info_from_ip_address('20.53.203.50')
