(other * x**(other - 1),)
