# the local derivative of out = sigmoid(self);
# the method computed s = 1 / (1 + exp(-x))
(0,)
