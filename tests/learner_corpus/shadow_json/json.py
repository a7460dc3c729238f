# trying out the json module for the homework (named it json.py, oops)
import json

data = {"scores": [0.7071, 0], "weights": [0.67, 0.33]}
print(json.dumps(data))
