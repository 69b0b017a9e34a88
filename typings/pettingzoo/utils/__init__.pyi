from pettingzoo.utils import wrappers as wrappers
