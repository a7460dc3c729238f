# HOSTILE18-CLASSMATE: an honest classmate (the hostile files look for this mark).
# Windows-1252 in a comment, with no coding cookie: na“ve
def softmax(x, axis=-1):
    return None
