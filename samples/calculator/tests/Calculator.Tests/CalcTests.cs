using Calculator;

namespace Calculator.Tests;

public class CalcTests
{
    [Fact]
    public void Add_ReturnsSum() => Assert.Equal(5, Calc.Add(2, 3));

    [Fact]
    public void Subtract_ReturnsDifference() => Assert.Equal(1, Calc.Subtract(3, 2));

    [Theory]
    [InlineData(2, 3, 6)]
    [InlineData(0, 9, 0)]
    [InlineData(-2, 4, -8)]
    public void Multiply_ReturnsProduct(int a, int b, int expected) => Assert.Equal(expected, Calc.Multiply(a, b));

    [Fact]
    public void Divide_ReturnsQuotient() => Assert.Equal(2, Calc.Divide(6, 3));

    [Fact]
    public void Divide_ByZero_Throws() => Assert.Throws<DivideByZeroException>(() => Calc.Divide(1, 0));
}
