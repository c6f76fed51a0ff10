// expect: project-away of an unknown plain name -> HTTP 400: error invalid <apl_* code>
ds | project-away nosuch
