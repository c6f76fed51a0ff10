other:cpu
