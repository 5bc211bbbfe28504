def main(): print('ok')
