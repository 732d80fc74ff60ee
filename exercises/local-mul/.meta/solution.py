(other.data, self.data)
