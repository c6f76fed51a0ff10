ds | where isnotnull(tags) | mv-expand tag = tags | summarize c = count() by tostring(tag) | sort by c desc, Column1 asc
