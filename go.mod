module schedplay

go 1.26
